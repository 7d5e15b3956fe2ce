survey <- clean_survey(read_survey(meadow_example("quadrats_2023.csv")))

test_that("plot_cover() lumps rare taxa into Other", {
  p <- plot_cover(survey, top_n = 3, palette = "Blues", facet = FALSE)

  expect_s3_class(p, "ggplot")
  expect_equal(nlevels(p$data$taxon), 4)
  expect_equal(levels(p$data$taxon)[4], "Other")
  expect_equal(levels(p$data$taxon)[1], "Bromopsis erecta")
})

test_that("plot_cover() facets by site unless told not to", {
  expect_s3_class(plot_cover(survey)$facet, "FacetWrap")
  expect_s3_class(plot_cover(survey, facet = FALSE)$facet, "FacetNull")
})

test_that("plot_diversity() rejects unknown indices", {
  table <- diversity_table(survey)
  expect_s3_class(plot_diversity(table, index = "simpson"), "ggplot")
  expect_error(plot_diversity(table, index = "evenness"))
})
