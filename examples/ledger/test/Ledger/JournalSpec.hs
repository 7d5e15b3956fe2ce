module Ledger.JournalSpec (spec) where

import Data.Text (Text)
import qualified Data.Text as T
import Data.Time.Calendar (fromGregorian)
import Test.Hspec

import Ledger.Config
import Ledger.Journal
import Ledger.Types

sample :: Text
sample =
  T.unlines
    [ "; household books"
    , "2024-03-01 Rent for March"
    , "    expenses:housing:rent      EUR 950.00"
    , "    assets:bank:checking"
    , ""
    , "2024-02-27 Groceries  ; weekly shop"
    , "    expenses:food              54.2"
    , "    assets:cash               -54.20"
    ]

spec :: Spec
spec = do
  describe "parseQuantity" $ do
    it "pads missing decimals" $ parseQuantity 2 "54.2" `shouldBe` Just (Quantity 5420)
    it "reads signs and separators" $ parseQuantity 2 "-1,200" `shouldBe` Just (-120000)
    it "refuses extra decimals" $ parseQuantity 2 "1.005" `shouldBe` Nothing
    it "honours decimal places" $ parseQuantity 3 "1.005" `shouldBe` Just (Quantity 1005)

  describe "parseJournal" $ do
    it "sorts by date and fills the elided posting" $ do
      let Right (Journal ts) = parseJournal defaultConfig sample
      map txnDescription ts `shouldBe` ["Groceries", "Rent for March"]
      map postingAmount (txnPostings (last ts))
        `shouldBe` [Just (Amount "EUR" 95000), Just (Amount "EUR" (-95000))]
    it "uses the configured currency for bare numbers" $ do
      let Right (Journal (t : _)) = parseJournal defaultConfig {cfgCurrency = "SEK"} sample
      map postingAmount (txnPostings t) `shouldContain` [Just (Amount "SEK" 5420)]
    it "reports unbalanced transactions" $
      parseJournal defaultConfig "2024-01-05 Oops\n    a  10\n    b  -9\n"
        `shouldBe` Left (Unbalanced (fromGregorian 2024 1 5) "Oops" "EUR" 100)
    it "stops at max_transactions" $
      parseJournal defaultConfig {cfgMaxTransactions = 1} sample `shouldBe` Left (JournalFull 1)
    it "reads back what renderJournal writes" $ do
      let cfg = defaultConfig {cfgDecimalPlaces = 3}
          Right j = parseJournal cfg sample
      parseJournal cfg (renderJournal cfg j) `shouldBe` Right j
