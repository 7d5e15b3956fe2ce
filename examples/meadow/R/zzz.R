#' @keywords internal
"_PACKAGE"

# Package options. Users can set any of these before loading meadow (for
# example in .Rprofile); only options that are still unset get a default.
.onLoad <- function(libname, pkgname) {
  op <- options()
  op_meadow <- list(
    meadow.max_rows = MEADOW_MAX_ROWS,
    meadow.cover_scale = "percent",
    meadow.date_format = "%d/%m/%Y",
    meadow.palette = "YlGn",
    meadow.verbose = FALSE
  )
  toset <- !(names(op_meadow) %in% names(op))
  if (any(toset)) options(op_meadow[toset])

  invisible()
}
