-- | Reading, checking and writing journals. See the README for the format.
module Ledger.Journal
  ( parseJournal
  , parseQuantity
  , balanceTransaction
  , addTransaction
  , accountBalances
  , showQuantity
  , renderJournal
  , readJournalFile
  , writeJournalSafely
  ) where

import Control.Monad (forM_, guard, when)
import Data.Char (isDigit, isSpace)
import Data.List (partition, sortOn)
import Data.Map.Strict (Map)
import qualified Data.Map.Strict as Map
import Data.Maybe (isNothing)
import Data.Text (Text)
import qualified Data.Text as T
import qualified Data.Text.IO as TIO
import Data.Time.Format (defaultTimeLocale, formatTime, parseTimeM)
import System.Directory (copyFile, doesFileExist, renameFile)
import Text.Read (readMaybe)

import Ledger.Config (Config (..))
import Ledger.Types

type Line = (Int, Text)

parseJournal :: Config -> Text -> Either LedgerError Journal
parseJournal cfg input = do
  txns <- traverse (parseBlock cfg) (blocks (zip [1 ..] (T.lines input)))
  when (length txns > cfgMaxTransactions cfg) $
    Left (JournalFull (cfgMaxTransactions cfg))
  Journal . sortOn txnDate <$> traverse balanceTransaction txns

readJournalFile :: Config -> FilePath -> IO (Either LedgerError Journal)
readJournalFile cfg path = parseJournal cfg <$> TIO.readFile path

blocks :: [Line] -> [(Line, [Line])]
blocks ls = case dropWhile (isBlank . snd) ls of
  [] -> []
  hdr : rest ->
    let (body, rest') = span (startsIndented . snd) rest
     in (hdr, filter (not . isBlank . snd) body) : blocks rest'
  where
    startsIndented t = maybe False (isSpace . fst) (T.uncons t) && not (T.null (T.strip t))

isBlank :: Text -> Bool
isBlank t = T.null s || ";" `T.isPrefixOf` s || "#" `T.isPrefixOf` s
  where
    s = T.strip t

stripComment :: Text -> Text
stripComment = fst . T.breakOn ";"

parseBlock :: Config -> (Line, [Line]) -> Either LedgerError Transaction
parseBlock cfg ((n, hdr), body) = do
  let (dateTxt, desc) = T.breakOn " " (T.strip (stripComment hdr))
  day <-
    maybe (Left (ParseError n ("cannot read date " <> dateTxt))) Right $
      parseTimeM False defaultTimeLocale (cfgDateFormat cfg) (T.unpack dateTxt)
  postings <- traverse (parsePosting cfg) body
  when (length postings < 2) $
    Left (ParseError n "a transaction needs at least two postings")
  pure (Transaction day (T.strip desc) postings)

parsePosting :: Config -> Line -> Either LedgerError Posting
parsePosting cfg (n, raw) =
  case T.words (stripComment raw) of
    [acct] -> Right (Posting (AccountName acct) Nothing)
    [acct, q] -> posting acct (cfgCurrency cfg) q
    [acct, c, q] -> posting acct c q
    _ -> Left (ParseError n ("cannot read posting: " <> T.strip raw))
  where
    posting acct c q = case parseQuantity (cfgDecimalPlaces cfg) q of
      Just qty -> Right (Posting (AccountName acct) (Just (Amount c qty)))
      Nothing -> Left (ParseError n ("cannot read amount " <> q))

-- | Read a decimal number into minor units. More fractional digits than
-- @places@ is an error rather than a silent rounding.
parseQuantity :: Int -> Text -> Maybe Quantity
parseQuantity places t = do
  let (neg, body) = maybe (False, t) (True,) (T.stripPrefix "-" t)
      (whole, frac) = T.drop 1 <$> T.breakOn "." (T.filter (/= ',') body)
  guard (not (T.null whole) && T.all isDigit whole && T.all isDigit frac)
  guard (T.length frac <= places)
  n <- readMaybe (T.unpack (whole <> T.justifyLeft places '0' frac))
  pure (Quantity (if neg then negate n else n))

-- | Check that a transaction balances per commodity, filling in the one
-- posting without an amount if there is one.
balanceTransaction :: Transaction -> Either LedgerError Transaction
balanceTransaction t =
  case partition (isNothing . postingAmount) (txnPostings t) of
    ([], explicit) -> do
      forM_ (Map.toList (sums explicit)) $ \(c, q) ->
        when (q /= 0) $ Left (Unbalanced (txnDate t) (txnDescription t) c q)
      pure t
    ([elided], explicit) ->
      pure
        t
          { txnPostings =
              explicit
                ++ [ elided {postingAmount = Just (Amount c (negate q))}
                   | (c, q) <- Map.toList (sums explicit)
                   , q /= 0
                   ]
          }
    _ -> Left (TooManyElided (txnDate t) (txnDescription t))
  where
    sums ps =
      Map.fromListWith (+) [(amountCommodity a, amountQuantity a) | Posting _ (Just a) <- ps]

addTransaction :: Config -> Transaction -> Journal -> Either LedgerError Journal
addTransaction cfg t (Journal ts)
  | length ts >= cfgMaxTransactions cfg = Left (JournalFull (cfgMaxTransactions cfg))
  | otherwise = Journal . sortOn txnDate . (ts ++) . pure <$> balanceTransaction t

-- | Net amount per account and commodity.
accountBalances :: Journal -> Map AccountName (Map Text Quantity)
accountBalances (Journal ts) =
  Map.fromListWith
    (Map.unionWith (+))
    [ (postingAccount p, Map.singleton (amountCommodity a) (amountQuantity a))
    | t <- ts
    , p <- txnPostings t
    , Just a <- [postingAmount p]
    ]

showQuantity :: Int -> Quantity -> Text
showQuantity places (Quantity q)
  | places <= 0 = T.pack (show q)
  | otherwise = sign <> T.pack (show whole) <> "." <> T.justifyRight places '0' (T.pack (show frac))
  where
    sign = if q < 0 then "-" else ""
    (whole, frac) = abs q `quotRem` (10 ^ places)

renderJournal :: Config -> Journal -> Text
renderJournal cfg = T.intercalate "\n" . map transaction . journalTransactions
  where
    transaction t = T.unlines (date t <> " " <> txnDescription t : map posting (txnPostings t))
    date = T.pack . formatTime defaultTimeLocale (cfgDateFormat cfg) . txnDate
    posting p =
      T.stripEnd $
        "    "
          <> T.justifyLeft 34 ' ' (unAccountName (postingAccount p))
          <> maybe "" amount (postingAmount p)
    amount (Amount c q) = c <> " " <> showQuantity (cfgDecimalPlaces cfg) q

-- | Rotate @path.bak.N@ backups (@.bak.1@ is the newest, at most
-- 'cfgBackupRetention' are kept), then replace the journal via a temp file.
writeJournalSafely :: Config -> FilePath -> Journal -> IO ()
writeJournalSafely cfg path j = do
  let keep = cfgBackupRetention cfg
      bak n = path <> ".bak." <> show (n :: Int)
  when (keep > 0) $ do
    forM_ [keep - 1, keep - 2 .. 1] $ \n ->
      doesFileExist (bak n) >>= \e -> when e (renameFile (bak n) (bak (n + 1)))
    doesFileExist path >>= \e -> when e (copyFile path (bak 1))
  TIO.writeFile (path <> ".tmp") (renderJournal cfg j)
  renameFile (path <> ".tmp") path
