raw_survey <- function() read_survey(meadow_example("quadrats_2023.csv"))

test_that("clean_survey() tidies site codes and taxon names", {
  cleaned <- clean_survey(raw_survey())

  expect_setequal(unique(cleaned$site), c("CHB", "HMN", "RVM"))
  expect_true("Festuca rubra" %in% cleaned$taxon[cleaned$quadrat == "Q03" & cleaned$site == "HMN"])
  expect_false(any(is.na(cleaned$cover)))
})

test_that("unidentified records are dropped unless asked to keep them", {
  expect_false("Poa sp." %in% clean_survey(raw_survey())$taxon)
  expect_true("Poa sp." %in% clean_survey(raw_survey(), drop_unknown = FALSE)$taxon)
})

test_that("min_cover drops trace records", {
  cleaned <- clean_survey(raw_survey(), min_cover = 2)
  expect_true(all(cleaned$cover >= 2))
  expect_false("Primula veris" %in% cleaned$taxon)

  everything <- clean_survey(raw_survey(), min_cover = 0)
  expect_true(all(c("Bellis perennis", "Cardamine pratensis") %in% everything$taxon))
})

test_that("repeated records of a taxon are merged", {
  cleaned <- clean_survey(raw_survey())
  knapweed <- cleaned[cleaned$site == "HMN" & cleaned$quadrat == "Q03" & cleaned$taxon == "Centaurea nigra", ]
  expect_equal(nrow(knapweed), 1)
  expect_equal(knapweed$cover, 15)

  unmerged <- clean_survey(raw_survey(), merge_duplicates = FALSE)
  expect_equal(sum(unmerged$taxon == "Centaurea nigra" & unmerged$site == "HMN" & unmerged$quadrat == "Q03"), 2)
})

test_that("check_survey() flags quadrats with implausible cover", {
  cleaned <- clean_survey(raw_survey())
  expect_silent(check_survey(cleaned))

  expect_warning(flagged <- check_survey(cleaned, max_total_cover = 120), "suspicious")
  expect_equal(flagged$site, "CHB")
  expect_equal(flagged$quadrat, "Q02")
  expect_equal(flagged$total_cover, 133)
})
