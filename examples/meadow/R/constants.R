# Internal constants shared by more than one file. Defaults that belong to a
# single function live next to that function instead.

# Starting value of the `meadow.max_rows` option (see zzz.R) and the fallback
# read_survey() uses when the option has been unset.
MEADOW_MAX_ROWS <- 50000L

# Columns every survey export must provide, in this order of importance.
REQUIRED_COLUMNS <- c("site", "quadrat", "date", "taxon", "cover")

# Words that mark a record as not identified to species. Matched against each
# word of the lower-cased taxon name, so "Poa sp." and "Unknown grass" match.
UNKNOWN_TAXA <- c("unknown", "unidentified", "indet", "indet.", "sp", "sp.", "spp.", "?")

# Midpoint percent cover of each Domin class (after Currall 1987). Classes
# 1-3 are all "<4%" and are told apart by the number of individuals.
DOMIN_SCALE <- c(
  "+" = 0.1,
  "1" = 1,
  "2" = 2,
  "3" = 3,
  "4" = 7,
  "5" = 18,
  "6" = 29.5,
  "7" = 42,
  "8" = 63,
  "9" = 83,
  "10" = 95.5
)

# Label for the taxa that plot_cover() lumps together.
OTHER_TAXA_LABEL <- "Other"
OTHER_TAXA_COLOUR <- "grey80"
