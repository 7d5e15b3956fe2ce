-- | Balance reports and fiscal-year arithmetic.
module Ledger.Report
  ( ReportOptions (..)
  , balanceReport
  , renderBalance
  , fiscalYear
  , fiscalYearBounds
  ) where

import Data.Map.Strict (Map)
import qualified Data.Map.Strict as Map
import Data.Text (Text)
import qualified Data.Text as T
import Data.Time.Calendar (Day, addGregorianMonthsClip, fromGregorian, toGregorian)

import Ledger.Config (Config (..))
import Ledger.Journal (accountBalances, showQuantity)
import Ledger.Types

data ReportOptions = ReportOptions
  { roDepth :: !(Maybe Int)
  -- ^ Roll accounts up to this many components; 'Nothing' shows every level.
  , roWidth :: !Int
  , roPeriod :: !(Maybe (Day, Day))
  -- ^ Start (inclusive) and end (exclusive).
  }
  deriving stock (Eq, Show)

-- | Non-zero balances per account, rolled up to the requested depth.
balanceReport :: ReportOptions -> Journal -> [(AccountName, Map Text Quantity)]
balanceReport opts (Journal ts) =
  Map.toList . Map.filter (not . Map.null) . Map.map (Map.filter (/= 0)) $
    Map.mapKeysWith (Map.unionWith (+)) roll (accountBalances (Journal (filter inPeriod ts)))
  where
    roll = maybe id truncateAccount (roDepth opts)
    inPeriod t = maybe True (\(b, e) -> b <= txnDate t && txnDate t < e) (roPeriod opts)

renderBalance :: Config -> ReportOptions -> [(AccountName, Map Text Quantity)] -> Text
renderBalance cfg opts rows =
  T.unlines $ concatMap row rows ++ [T.replicate (roWidth opts) "-"] ++ totals
  where
    total = Map.filter (/= 0) (Map.unionsWith (+) (map snd rows))
    totals
      | Map.null total = [T.justifyRight (roWidth opts) ' ' "0"]
      | otherwise = map (uncurry (line "")) (Map.toList total)
    row (acct, amts) = map (uncurry (line (unAccountName acct))) (Map.toList amts)
    line label c q =
      let amt = c <> " " <> showQuantity (cfgDecimalPlaces cfg) q
          room = max 2 (roWidth opts - T.length amt)
       in T.justifyLeft room ' ' (T.take (room - 1) label) <> amt

-- | The fiscal year a day falls in, named after the calendar year it starts in.
fiscalYear :: Config -> Day -> Integer
fiscalYear cfg day =
  let (y, m, _) = toGregorian day
   in if m >= cfgFiscalYearStart cfg then y else y - 1

-- | First day of the fiscal year and first day of the next one.
fiscalYearBounds :: Config -> Integer -> (Day, Day)
fiscalYearBounds cfg y = (start, addGregorianMonthsClip 12 start)
  where
    start = fromGregorian y (cfgFiscalYearStart cfg) 1
