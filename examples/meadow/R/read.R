#' Read a quadrat survey file
#'
#' Reads a delimited survey export with one row per taxon per quadrat,
#' checks that the required columns (`site`, `quadrat`, `date`, `taxon`,
#' `cover`) are present and converts cover to percent.
#'
#' @param path Path to a CSV or other delimited file.
#' @param scale Cover scale used in the `cover` column, `"percent"` or
#'   `"domin"`. Defaults to the `meadow.cover_scale` option.
#' @param max_rows Refuse to read files with more rows than this, to avoid
#'   loading a whole county's records by mistake. Defaults to the
#'   `meadow.max_rows` option.
#' @param date_format Format of the `date` column, see [readr::col_date()].
#'   Defaults to the `meadow.date_format` option.
#' @param delim Field delimiter.
#' @return A tibble with the required columns plus any others in the file.
#'   `cover` is numeric percent cover and `date` is a `Date`.
#' @seealso [clean_survey()] for the next step.
#' @export
#' @examples
#' survey <- read_survey(meadow_example("quadrats_2023.csv"))
#' survey
read_survey <- function(path,
                        scale = getOption("meadow.cover_scale", "percent"),
                        max_rows = getOption("meadow.max_rows", MEADOW_MAX_ROWS),
                        date_format = getOption("meadow.date_format", "%d/%m/%Y"),
                        delim = ",") {
  scale <- rlang::arg_match(scale, c("percent", "domin"))
  if (!file.exists(path)) {
    cli::cli_abort("Survey file {.path {path}} does not exist.")
  }

  data <- readr::read_delim(
    path,
    delim = delim,
    n_max = max_rows + 1,
    col_types = readr::cols(
      date = readr::col_date(format = date_format),
      .default = readr::col_character()
    ),
    trim_ws = TRUE,
    progress = FALSE
  )
  if (nrow(data) > max_rows) {
    cli::cli_abort(c(
      "{.file {basename(path)}} has more than {max_rows} rows.",
      "i" = "Set {.code options(meadow.max_rows = )} to read it anyway."
    ))
  }
  check_columns(data, REQUIRED_COLUMNS, arg = basename(path))

  data$cover <- switch(scale,
    percent = suppressWarnings(as.numeric(data$cover)),
    domin = domin_to_percent(data$cover)
  )
  meadow_inform("Read {nrow(data)} record{?s} from {.file {basename(path)}}.")
  data
}

#' Path to an example survey
#'
#' meadow ships a small survey of three grassland sites recorded in summer
#' 2023, used in the examples and tests.
#'
#' @param file Name of a file in the package's `extdata` folder, or `NULL`
#'   to list the files.
#' @return A file path, or a character vector of file names.
#' @export
#' @examples
#' meadow_example()
#' meadow_example("quadrats_2023.csv")
meadow_example <- function(file = NULL) {
  if (is.null(file)) {
    return(dir(system.file("extdata", package = "meadow")))
  }
  system.file("extdata", file, package = "meadow", mustWork = TRUE)
}
