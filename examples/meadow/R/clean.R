#' Clean a quadrat survey
#'
#' Tidies site codes and taxon names, drops records without cover,
#' unidentified records and trace records, and merges repeated records of
#' the same taxon in the same quadrat.
#'
#' @param data A survey as returned by [read_survey()].
#' @param min_cover Records with less cover than this (in percent) are
#'   dropped. Observers who note every seedling produce many trace records
#'   that only add noise to the diversity indices.
#' @param drop_unknown Drop records not identified to species, such as
#'   `"Poa sp."` or `"Unknown grass"`.
#' @param merge_duplicates Sum the cover of repeated records of a taxon
#'   within one quadrat visit.
#' @return A tibble with one row per site, quadrat, date and taxon, sorted
#'   by site, quadrat and decreasing cover.
#' @export
#' @examples
#' survey <- read_survey(meadow_example("quadrats_2023.csv"))
#' clean_survey(survey)
#' clean_survey(survey, min_cover = 5)
clean_survey <- function(data,
                         min_cover = 0.25,
                         drop_unknown = TRUE,
                         merge_duplicates = TRUE) {
  check_columns(data)
  n_in <- nrow(data)

  data <- dplyr::mutate(
    data,
    site = toupper(trimws(.data$site)),
    quadrat = toupper(trimws(.data$quadrat)),
    taxon = sentence_case(.data$taxon)
  )
  data <- dplyr::filter(data, !is.na(.data$cover), !is.na(.data$taxon), .data$taxon != "")

  if (drop_unknown) {
    data <- dplyr::filter(data, !is_unknown_taxon(.data$taxon))
  }
  if (merge_duplicates) {
    data <- dplyr::summarise(
      data,
      cover = sum(.data$cover),
      .by = c("site", "quadrat", "date", "taxon")
    )
  }

  data <- dplyr::filter(data, .data$cover >= min_cover)
  meadow_inform("Kept {nrow(data)} of {n_in} record{?s}.")
  dplyr::arrange(data, .data$site, .data$quadrat, dplyr::desc(.data$cover))
}

#' Check a survey for suspicious quadrats
#'
#' Vegetation layers overlap, so the summed cover of a quadrat can exceed
#' 100%, but very high totals usually mean a data-entry slip (a Domin class
#' typed into a percent column, say). Very species-poor quadrats are
#' flagged as well; they are often half-recorded.
#'
#' @param data A cleaned survey, see [clean_survey()].
#' @param max_total_cover Flag quadrats whose summed cover exceeds this.
#' @param min_taxa Flag quadrats with fewer taxa than this.
#' @return The flagged quadrats, with their `total_cover` and `n_taxa`.
#'   A warning is given if there are any.
#' @export
check_survey <- function(data, max_total_cover = 180, min_taxa = 3) {
  check_columns(data)
  totals <- dplyr::summarise(
    data,
    total_cover = sum(.data$cover, na.rm = TRUE),
    n_taxa = dplyr::n_distinct(.data$taxon),
    .by = c("site", "quadrat", "date")
  )
  flagged <- dplyr::filter(totals, .data$total_cover > max_total_cover | .data$n_taxa < min_taxa)
  if (nrow(flagged) > 0) {
    cli::cli_warn("{nrow(flagged)} quadrat{?s} look{?s/} suspicious: {.val {paste(flagged$site, flagged$quadrat)}}.")
  }
  flagged
}

is_unknown_taxon <- function(taxon) {
  words <- strsplit(tolower(taxon), " ", fixed = TRUE)
  vapply(words, function(w) any(w %in% UNKNOWN_TAXA), logical(1))
}
