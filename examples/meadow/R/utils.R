# Internal helpers. Nothing in this file is exported.

#' @importFrom rlang .data
NULL

check_columns <- function(data,
                          required = REQUIRED_COLUMNS,
                          arg = rlang::caller_arg(data),
                          call = rlang::caller_env()) {
  if (!is.data.frame(data)) {
    cli::cli_abort("{.arg {arg}} must be a data frame, not {.obj_type_friendly {data}}.", call = call)
  }
  missing <- setdiff(required, names(data))
  if (length(missing) > 0) {
    cli::cli_abort("{.arg {arg}} is missing column{?s} {.field {missing}}.", call = call)
  }
  invisible(data)
}

# Messages only shown when options(meadow.verbose = TRUE).
meadow_inform <- function(message, .envir = parent.frame()) {
  if (isTRUE(getOption("meadow.verbose", FALSE))) {
    cli::cli_inform(message, .envir = .envir)
  }
}

# "  festuca   RUBRA " -> "Festuca rubra"
sentence_case <- function(x) {
  x <- tolower(trimws(gsub("\\s+", " ", x)))
  paste0(toupper(substr(x, 1, 1)), substr(x, 2, nchar(x)))
}

strip_extension <- function(path) {
  sub("\\.[^.]*$", "", basename(path))
}
