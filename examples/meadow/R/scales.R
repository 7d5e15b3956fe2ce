#' Convert Domin cover classes to percent cover
#'
#' Field teams often record cover on the Domin scale rather than as a
#' percentage. `domin_to_percent()` maps each class to the midpoint of its
#' percentage band so that Domin and percent surveys can be analysed
#' together.
#'
#' @param x A character or numeric vector of Domin classes (`"+"` and
#'   `1` to `10`).
#' @param strict If `TRUE`, an unknown class is an error. Otherwise it
#'   becomes `NA` with a warning.
#' @return A numeric vector of percent cover, the same length as `x`.
#' @export
#' @examples
#' domin_to_percent(c("+", "4", "10"))
domin_to_percent <- function(x, strict = FALSE) {
  key <- trimws(as.character(x))
  out <- unname(DOMIN_SCALE[key])
  bad <- !is.na(key) & is.na(out)
  if (any(bad)) {
    classes <- unique(key[bad])
    if (strict) {
      cli::cli_abort("Unknown Domin class{?es}: {.val {classes}}.")
    }
    cli::cli_warn("Unknown Domin class{?es} {.val {classes}} converted to {.code NA}.")
  }
  out
}
