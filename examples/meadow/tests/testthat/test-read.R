example_path <- function() meadow_example("quadrats_2023.csv")

test_that("read_survey() reads the example survey", {
  survey <- read_survey(example_path())

  expect_s3_class(survey, "tbl_df")
  expect_true(all(c("site", "quadrat", "date", "taxon", "cover") %in% names(survey)))
  expect_type(survey$cover, "double")
  expect_s3_class(survey$date, "Date")
  expect_equal(nrow(survey), 54)
})

test_that("read_survey() refuses files longer than max_rows", {
  expect_error(read_survey(example_path(), max_rows = 5), "more than 5 rows")

  withr::local_options(meadow.max_rows = 10)
  expect_error(read_survey(example_path()), "more than 10 rows")
})

test_that("read_survey() complains about missing columns", {
  path <- withr::local_tempfile(fileext = ".csv")
  writeLines(c("site,quadrat,taxon,cover", "HMN,Q01,Festuca rubra,30"), path)
  expect_error(read_survey(path), "missing column")
})

test_that("read_survey() converts Domin cover", {
  path <- withr::local_tempfile(fileext = ".csv")
  writeLines(c(
    "site,quadrat,date,taxon,cover",
    "HMN,Q01,2023-06-14,Festuca rubra,7",
    "HMN,Q01,2023-06-14,Bellis perennis,+"
  ), path)

  survey <- read_survey(path, scale = "domin", date_format = "%Y-%m-%d")
  expect_equal(survey$cover, c(42, 0.1))
  expect_equal(survey$date[1], as.Date("2023-06-14"))
})

test_that("domin_to_percent() handles unknown classes", {
  expect_equal(domin_to_percent(c("+", "4", "10")), c(0.1, 7, 95.5))
  expect_warning(out <- domin_to_percent(c("3", "11")), "Unknown Domin")
  expect_equal(out, c(3, NA))
  expect_error(domin_to_percent("11", strict = TRUE), "Unknown Domin")
})
