-- | Runtime configuration, read from @ledger.json@ next to the journal.
--
-- Every key is optional; missing keys fall back to 'defaultConfig'.
module Ledger.Config
  ( Config (..)
  , defaultConfig
  , configPath
  , loadConfig
  ) where

import Data.Aeson (FromJSON (..), eitherDecodeFileStrict', withObject, (.!=), (.:?))
import Data.Text (Text)
import System.Directory (doesFileExist)
import System.FilePath (takeDirectory, (</>))

data Config = Config
  { cfgCurrency :: !Text
  -- ^ Commodity assumed when a posting gives a bare number.
  , cfgDecimalPlaces :: !Int
  , cfgDateFormat :: !String
  , cfgFiscalYearStart :: !Int
  -- ^ Month (1-12) in which the fiscal year begins.
  , cfgMaxTransactions :: !Int
  , cfgBackupRetention :: !Int
  -- ^ How many rotated @.bak.N@ copies of the journal are kept on write.
  , cfgSyncPort :: !Int
  -- ^ Port of the ledger-sync HTTP endpoint; used by ledger-sync, not by the CLI.
  , cfgSyncTimeoutSecs :: !Int
  }
  deriving stock (Eq, Show)

defaultConfig :: Config
defaultConfig =
  Config
    { cfgCurrency = "EUR"
    , cfgDecimalPlaces = 2
    , cfgDateFormat = "%Y-%m-%d"
    , cfgFiscalYearStart = 4
    , cfgMaxTransactions = 250000
    , cfgBackupRetention = 14
    , cfgSyncPort = 8471
    , cfgSyncTimeoutSecs = 25
    }

instance FromJSON Config where
  parseJSON = withObject "Config" $ \o -> do
    let d = defaultConfig
    Config
      <$> o .:? "currency" .!= cfgCurrency d
      <*> o .:? "decimal_places" .!= cfgDecimalPlaces d
      <*> o .:? "date_format" .!= cfgDateFormat d
      <*> o .:? "fiscal_year_start" .!= cfgFiscalYearStart d
      <*> o .:? "max_transactions" .!= cfgMaxTransactions d
      <*> o .:? "backups" .!= cfgBackupRetention d
      <*> o .:? "sync_port" .!= cfgSyncPort d
      <*> o .:? "sync_timeout" .!= cfgSyncTimeoutSecs d

-- | Where the config for a journal lives when @--config@ is not given.
configPath :: FilePath -> FilePath
configPath journal = takeDirectory journal </> "ledger.json"

-- | Read a config file, or return 'defaultConfig' if there is none.
loadConfig :: FilePath -> IO (Either String Config)
loadConfig path = do
  exists <- doesFileExist path
  if exists
    then eitherDecodeFileStrict' path
    else pure (Right defaultConfig)
