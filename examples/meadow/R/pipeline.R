#' Read meadow settings
#'
#' Settings that differ between a laptop, CI and the production server live
#' in `inst/config.yml`, grouped into profiles (`default`, `ci` and
#' `production`). The active profile comes from the `MEADOW_PROFILE`
#' environment variable; profiles inherit anything they do not set from
#' `default`.
#'
#' @param key Name of one setting, or `NULL` for all of them.
#' @param profile Profile to read.
#' @return The setting's value, or a list of all settings.
#' @export
#' @examples
#' meadow_config()
#' meadow_config("accumulation_reps", profile = "ci")
meadow_config <- function(key = NULL, profile = Sys.getenv("MEADOW_PROFILE", "default")) {
  file <- system.file("config.yml", package = "meadow", mustWork = TRUE)
  config::get(key, config = profile, file = file)
}

#' Run the standard survey pipeline
#'
#' Reads, cleans and checks a survey and writes a per-quadrat diversity
#' table to `out_dir` as `<survey>_diversity.csv`. This is what the Docker
#' image runs.
#'
#' @param path Path to the survey file.
#' @param out_dir Directory for the output. Defaults to the `export_dir`
#'   setting, see [meadow_config()].
#' @return The path of the written file, invisibly.
#' @export
run_survey <- function(path, out_dir = meadow_config("export_dir")) {
  survey <- clean_survey(read_survey(path))
  check_survey(survey)

  per_site <- table(unique(survey[c("site", "quadrat")])$site)
  too_few <- names(per_site)[per_site < meadow_config("min_quadrats_per_site")]
  if (length(too_few) > 0) {
    cli::cli_warn("Too few quadrats for a reliable estimate at {.val {too_few}}.")
  }

  dir.create(out_dir, showWarnings = FALSE, recursive = TRUE)
  out <- file.path(out_dir, paste0(strip_extension(path), "_diversity.csv"))
  readr::write_csv(diversity_table(survey), out)
  cli::cli_inform("Wrote {.path {out}}.")
  invisible(out)
}
