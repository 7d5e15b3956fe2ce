module Main (main) where

import Data.Maybe (fromMaybe)
import Data.Text (Text)
import qualified Data.Text as T
import qualified Data.Text.IO as TIO
import Data.Time.Calendar (Day)
import Data.Time.Clock (getCurrentTime, utctDay)
import Data.Time.Format (defaultTimeLocale, parseTimeM)
import Data.Version (showVersion)
import Options.Applicative
import System.Exit (exitFailure)
import System.IO (hPutStrLn, stderr)

import Ledger.Config
import Ledger.Journal
import Ledger.Report
import Ledger.Types
import Paths_ledger_lite (version)

data Options = Options
  { optJournal :: !FilePath
  , optConfig :: !(Maybe FilePath)
  , optWidth :: !Int
  , optCommand :: !Command
  }

data Command
  = CmdBalance !(Maybe Int) !(Maybe Integer)
  | CmdAdd !(Maybe Day) !Text !Text !Text !Text
  | CmdCheck

optionsParser :: Parser Options
optionsParser =
  Options
    <$> strOption
      ( long "file"
          <> short 'f'
          <> metavar "JOURNAL"
          <> value "ledger.journal"
          <> showDefault
          <> help "Journal file to read"
      )
    <*> optional
      (strOption (long "config" <> metavar "FILE" <> help "Default: ledger.json"))
    <*> option
      auto
      ( long "width"
          <> short 'w'
          <> metavar "COLUMNS"
          <> value 96
          <> showDefault
          <> help "Maximum width of report output"
      )
    <*> hsubparser
      ( command "balance" (info balanceP (progDesc "Show account balances"))
          <> command "add" (info addP (progDesc "Append a two-posting transaction"))
          <> command "check" (info (pure CmdCheck) (progDesc "Check that the journal balances"))
      )
  where
    balanceP =
      CmdBalance
        <$> optional (option auto (long "depth" <> short 'd' <> metavar "N" <> help "Roll up"))
        <*> optional (option auto (long "fiscal" <> metavar "YEAR" <> help "One fiscal year"))
    addP =
      CmdAdd
        <$> optional (option dayReader (long "date" <> metavar "DATE" <> help "Default: today"))
        <*> strOption (long "from" <> metavar "ACCOUNT")
        <*> strOption (long "to" <> metavar "ACCOUNT")
        <*> strArgument (metavar "AMOUNT")
        <*> strArgument (metavar "DESCRIPTION")
    dayReader = maybeReader (parseTimeM True defaultTimeLocale "%Y-%m-%d")

die' :: Text -> IO a
die' msg = hPutStrLn stderr ("ledger-lite: " <> T.unpack msg) >> exitFailure

orDie :: Either LedgerError a -> IO a
orDie = either (die' . renderError) pure

main :: IO ()
main = do
  opts <-
    execParser $
      info
        (optionsParser <**> helper <**> simpleVersioner (showVersion version))
        (fullDesc <> header "ledger-lite - plain-text double-entry bookkeeping")
  let path = optJournal opts
  cfg <- loadConfig (fromMaybe (configPath path) (optConfig opts)) >>= either (die' . T.pack) pure
  let load = readJournalFile cfg path >>= orDie
  case optCommand opts of
    CmdCheck -> do
      Journal ts <- load
      putStrLn (show (length ts) <> " transactions, all balanced")
    CmdBalance depth fiscal -> do
      let ropts = ReportOptions depth (optWidth opts) (fiscalYearBounds cfg <$> fiscal)
      load >>= TIO.putStr . renderBalance cfg ropts . balanceReport ropts
    CmdAdd mday from to amountTxt desc -> do
      j <- load
      day <- maybe (utctDay <$> getCurrentTime) pure mday
      qty <-
        maybe (die' ("cannot read amount " <> amountTxt)) pure $
          parseQuantity (cfgDecimalPlaces cfg) amountTxt
      let posting acct = Posting (AccountName acct)
          amount = Amount (cfgCurrency cfg) qty
          txn = Transaction day desc [posting to (Just amount), posting from Nothing]
      orDie (addTransaction cfg txn j) >>= writeJournalSafely cfg path
