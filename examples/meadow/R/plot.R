#' Plot the cover of the most abundant taxa
#'
#' Draws a stacked bar per quadrat with the cover of the `top_n` taxa that
#' have the highest total cover in the survey. All other taxa are lumped
#' together as "Other".
#'
#' @param data A cleaned survey, see [clean_survey()].
#' @param top_n Number of taxa to show individually.
#' @param palette Name of a sequential ColorBrewer palette, see
#'   [scales::brewer_pal()]. Defaults to the `meadow.palette` option.
#' @param facet Draw one panel per site.
#' @return A ggplot object.
#' @export
#' @examples
#' survey <- clean_survey(read_survey(meadow_example("quadrats_2023.csv")))
#' plot_cover(survey)
#' plot_cover(survey, top_n = 5, palette = "Blues")
plot_cover <- function(data,
                       top_n = 15,
                       palette = getOption("meadow.palette", "YlGn"),
                       facet = TRUE) {
  check_columns(data)
  totals <- dplyr::summarise(data, total = sum(.data$cover), .by = "taxon")
  keep <- dplyr::slice_max(totals, .data$total, n = top_n, with_ties = FALSE)$taxon

  data$taxon <- ifelse(data$taxon %in% keep, data$taxon, OTHER_TAXA_LABEL)
  data$taxon <- factor(data$taxon, levels = c(keep, OTHER_TAXA_LABEL))

  colours <- grDevices::colorRampPalette(rev(scales::brewer_pal(palette = palette)(9)))(length(keep))
  colours <- c(stats::setNames(colours, keep), stats::setNames(OTHER_TAXA_COLOUR, OTHER_TAXA_LABEL))

  p <- ggplot2::ggplot(data, ggplot2::aes(x = .data$quadrat, y = .data$cover, fill = .data$taxon)) +
    ggplot2::geom_col(colour = "white", linewidth = 0.2) +
    ggplot2::scale_fill_manual(values = colours, drop = TRUE) +
    ggplot2::labs(x = "Quadrat", y = "Cover (%)", fill = "Taxon") +
    ggplot2::theme_minimal()
  if (facet) {
    p <- p + ggplot2::facet_wrap(ggplot2::vars(.data$site), scales = "free_x")
  }
  p
}

#' Plot a diversity index by site
#'
#' @param table A table from [diversity_table()] with a `site` column.
#' @param index Which index to plot.
#' @return A ggplot object.
#' @export
#' @examples
#' survey <- clean_survey(read_survey(meadow_example("quadrats_2023.csv")))
#' plot_diversity(diversity_table(survey), index = "simpson")
plot_diversity <- function(table, index = c("shannon", "simpson", "richness")) {
  index <- rlang::arg_match(index)
  check_columns(table, c("site", index))
  labels <- c(shannon = "Shannon index (H')", simpson = "Gini-Simpson index", richness = "Taxa per quadrat")
  ggplot2::ggplot(table, ggplot2::aes(x = .data$site, y = .data[[index]])) +
    ggplot2::geom_boxplot(outlier.shape = NA, fill = "grey95") +
    ggplot2::geom_jitter(width = 0.15, height = 0) +
    ggplot2::labs(x = "Site", y = labels[[index]]) +
    ggplot2::theme_minimal()
}
