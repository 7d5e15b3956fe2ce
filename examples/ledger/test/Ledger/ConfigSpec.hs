module Ledger.ConfigSpec (spec) where

import Data.Aeson (eitherDecode)
import Data.Time.Calendar (fromGregorian)
import Test.Hspec

import Ledger.Config
import Ledger.Report (fiscalYear, fiscalYearBounds)

-- | A config where every field differs from 'defaultConfig'.
swissConfig :: Config
swissConfig =
  Config
    { cfgCurrency = "CHF"
    , cfgDecimalPlaces = 3
    , cfgDateFormat = "%d.%m.%Y"
    , cfgFiscalYearStart = 1
    , cfgMaxTransactions = 1000
    , cfgBackupRetention = 3
    , cfgSyncPort = 18080
    , cfgSyncTimeoutSecs = 5
    }

spec :: Spec
spec = do
  describe "FromJSON Config" $ do
    it "reads an empty object as the defaults" $
      eitherDecode "{}" `shouldBe` Right defaultConfig
    it "fills missing keys from defaultConfig" $
      eitherDecode "{\"currency\": \"USD\", \"backups\": 30}"
        `shouldBe` Right defaultConfig {cfgCurrency = "USD", cfgBackupRetention = 30}
    it "reads every key" $
      eitherDecode
        "{\"currency\": \"CHF\", \"decimal_places\": 3, \"date_format\": \"%d.%m.%Y\",\
        \ \"fiscal_year_start\": 1, \"max_transactions\": 1000, \"backups\": 3,\
        \ \"sync_port\": 18080, \"sync_timeout\": 5}"
        `shouldBe` Right swissConfig

  describe "fiscalYear" $ do
    it "is named after the year it starts in" $ do
      fiscalYear defaultConfig (fromGregorian 2024 3 31) `shouldBe` 2023
      fiscalYear defaultConfig (fromGregorian 2024 4 1) `shouldBe` 2024
    it "follows the calendar year when it starts in January" $
      fiscalYear swissConfig (fromGregorian 2024 3 31) `shouldBe` 2024
    it "spans twelve months" $
      fiscalYearBounds defaultConfig {cfgFiscalYearStart = 7} 2023
        `shouldBe` (fromGregorian 2023 7 1, fromGregorian 2024 7 1)
