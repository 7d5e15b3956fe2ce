#' Diversity indices for one sample
#'
#' Cover values are turned into proportions of the sample total before the
#' Shannon and Simpson indices are computed; zero and missing values are
#' ignored.
#'
#' @param cover Numeric vector of cover (or abundance) values for one sample.
#' @param base Base of the logarithm in the Shannon index. Use `2` for bits.
#' @param inverse Return the inverse Simpson index, \eqn{1 / \sum p_i^2},
#'   instead of the Gini-Simpson index, \eqn{1 - \sum p_i^2}.
#' @return A single number.
#' @name diversity-indices
#' @examples
#' cover <- c(45, 30, 15, 8)
#' species_richness(cover)
#' shannon_index(cover)
#' simpson_index(cover, inverse = TRUE)
NULL

#' @rdname diversity-indices
#' @export
species_richness <- function(cover) {
  sum(cover > 0, na.rm = TRUE)
}

#' @rdname diversity-indices
#' @export
shannon_index <- function(cover, base = exp(1)) {
  p <- cover_proportions(cover)
  -sum(p * log(p, base = base))
}

#' @rdname diversity-indices
#' @export
simpson_index <- function(cover, inverse = FALSE) {
  p <- cover_proportions(cover)
  d <- sum(p^2)
  if (inverse) 1 / d else 1 - d
}

cover_proportions <- function(cover) {
  cover <- cover[!is.na(cover) & cover > 0]
  cover / sum(cover)
}

#' Diversity of every quadrat in a survey
#'
#' @param data A cleaned survey, see [clean_survey()].
#' @param by Columns that identify a sample. Use `"site"` to pool the
#'   quadrats of each site.
#' @param indices Which indices to compute.
#' @return A tibble with the `by` columns and one column per index.
#' @export
#' @examples
#' survey <- clean_survey(read_survey(meadow_example("quadrats_2023.csv")))
#' diversity_table(survey)
#' diversity_table(survey, by = "site", indices = "richness")
diversity_table <- function(data,
                            by = c("site", "quadrat"),
                            indices = c("richness", "shannon", "simpson")) {
  check_columns(data, c(by, "taxon", "cover"))
  indices <- rlang::arg_match(indices, multiple = TRUE)
  funs <- list(
    richness = species_richness,
    shannon = shannon_index,
    simpson = simpson_index
  )[indices]
  dplyr::summarise(
    data,
    dplyr::across("cover", funs, .names = "{.fn}"),
    .by = dplyr::all_of(by)
  )
}

#' Species accumulation curve
#'
#' Estimates how many taxa a site yields as more quadrats are surveyed, by
#' adding the quadrats in random order many times and averaging.
#'
#' @param data A cleaned survey, see [clean_survey()].
#' @param site Site code(s) to use. `NULL` pools all sites.
#' @param reps Number of random quadrat orderings. The default is the
#'   `accumulation_reps` setting of the active profile, see
#'   [meadow_config()].
#' @param seed Random seed for a reproducible curve. `NULL` leaves the
#'   random number generator alone.
#' @return A tibble with `n_quadrats`, the mean `richness` and its `sd`.
#' @export
species_accumulation <- function(data,
                                 site = NULL,
                                 reps = meadow_config("accumulation_reps"),
                                 seed = NULL) {
  check_columns(data)
  if (!is.null(site)) {
    data <- data[data$site %in% site, , drop = FALSE]
  }
  quadrats <- split(data$taxon, paste(data$site, data$quadrat, sep = "/"))
  n <- length(quadrats)
  if (n < 2) {
    cli::cli_abort("Need at least two quadrats for an accumulation curve, not {n}.")
  }
  if (!is.null(seed)) {
    set.seed(seed)
  }

  curves <- vapply(seq_len(reps), function(i) {
    seen <- character()
    vapply(quadrats[sample(n)], function(taxa) {
      seen <<- union(seen, taxa)
      length(seen)
    }, integer(1), USE.NAMES = FALSE)
  }, integer(n))
  curves <- matrix(curves, nrow = n)

  dplyr::tibble(
    n_quadrats = seq_len(n),
    richness = rowMeans(curves),
    sd = apply(curves, 1, stats::sd)
  )
}
