test_that("indices match hand-computed values", {
  cover <- c(50, 30, 20)
  p <- cover / 100

  expect_equal(species_richness(c(5, 0, 1, NA)), 2)
  expect_equal(shannon_index(cover), -sum(p * log(p)))
  expect_equal(shannon_index(cover, base = 2), -sum(p * log2(p)))
  expect_equal(simpson_index(cover), 1 - sum(p^2))
  expect_equal(simpson_index(cover, inverse = TRUE), 1 / sum(p^2))
})

test_that("zero and missing cover do not change the indices", {
  expect_equal(shannon_index(c(50, 30, 20, 0, NA)), shannon_index(c(50, 30, 20)))
  expect_equal(simpson_index(c(0, 10, 10)), 0.5)
})

test_that("diversity_table() has one row per quadrat", {
  survey <- clean_survey(read_survey(meadow_example("quadrats_2023.csv")))

  table <- diversity_table(survey)
  expect_equal(nrow(table), 9)
  expect_named(table, c("site", "quadrat", "richness", "shannon", "simpson"))

  by_site <- diversity_table(survey, by = "site", indices = "richness")
  expect_named(by_site, c("site", "richness"))
  expect_error(diversity_table(survey, indices = "chao1"))
})

test_that("species_accumulation() is reproducible with a seed", {
  survey <- clean_survey(read_survey(meadow_example("quadrats_2023.csv")))

  a <- species_accumulation(survey, site = "HMN", reps = 20, seed = 42)
  b <- species_accumulation(survey, site = "HMN", reps = 20, seed = 42)
  expect_identical(a, b)
  expect_equal(a$n_quadrats, 1:3)
  expect_true(all(diff(a$richness) >= 0))
  expect_error(species_accumulation(survey[survey$quadrat == "Q01" & survey$site == "HMN", ], reps = 5))
})

test_that("the ci profile keeps accumulation cheap", {
  expect_equal(meadow_config("accumulation_reps", profile = "ci"), 25)
})
