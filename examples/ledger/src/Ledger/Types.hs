{-# LANGUAGE GeneralizedNewtypeDeriving #-}

-- | Core data types for double-entry bookkeeping.
module Ledger.Types
  ( AccountName (..)
  , truncateAccount
  , Quantity (..)
  , Amount (..)
  , Posting (..)
  , Transaction (..)
  , Journal (..)
  , LedgerError (..)
  , renderError
  ) where

import Data.Text (Text)
import qualified Data.Text as T
import Data.Time.Calendar (Day, showGregorian)

-- | A colon-separated account path such as @assets:bank:checking@.
newtype AccountName = AccountName {unAccountName :: Text}
  deriving stock (Show)
  deriving newtype (Eq, Ord)

-- | Cut an account name down to at most @n@ components.
truncateAccount :: Int -> AccountName -> AccountName
truncateAccount n = AccountName . T.intercalate ":" . take n . T.splitOn ":" . unAccountName

-- | A quantity in minor units: cents for a currency with two decimal places.
newtype Quantity = Quantity {unQuantity :: Integer}
  deriving stock (Show)
  deriving newtype (Eq, Ord, Num)

data Amount = Amount
  { amountCommodity :: !Text
  , amountQuantity :: !Quantity
  }
  deriving stock (Eq, Show)

data Posting = Posting
  { postingAccount :: !AccountName
  , postingAmount :: !(Maybe Amount)
  -- ^ 'Nothing' means: balance the transaction with this posting.
  }
  deriving stock (Eq, Show)

data Transaction = Transaction
  { txnDate :: !Day
  , txnDescription :: !Text
  , txnPostings :: ![Posting]
  }
  deriving stock (Eq, Show)

-- | Transactions in date order.
newtype Journal = Journal {journalTransactions :: [Transaction]}
  deriving stock (Eq, Show)

data LedgerError
  = ParseError !Int !Text
  | Unbalanced !Day !Text !Text !Quantity
  -- ^ Date, description, commodity and the amount it is off by.
  | TooManyElided !Day !Text
  | JournalFull !Int
  deriving stock (Eq, Show)

renderError :: LedgerError -> Text
renderError = \case
  ParseError n msg -> "line " <> tshow n <> ": " <> msg
  Unbalanced d desc c (Quantity q) ->
    day d <> " " <> desc <> ": postings do not balance (" <> c <> " off by " <> tshow q <> ")"
  TooManyElided d desc -> day d <> " " <> desc <> ": only one posting may omit its amount"
  JournalFull limit -> "journal has more than " <> tshow limit <> " transactions"
  where
    day = T.pack . showGregorian
    tshow :: (Show a) => a -> Text
    tshow = T.pack . show
