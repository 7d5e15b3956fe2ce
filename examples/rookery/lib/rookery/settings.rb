# frozen_string_literal: true

module Rookery
  # Application-level knobs with built-in defaults.
  #
  # An environment file may override any key with
  #
  #   config.x.rookery.<key> = value
  #
  # and every key it leaves unset falls back to DEFAULTS below. ENV variables
  # are read in the environment files, never here, so this stays a plain
  # lookup that specs can reason about.
  module Settings
    DEFAULTS = {
      # GET /api/v1/colonies/:colony_id/surveys
      survey_page_size: 35,
      max_page_size: 150,

      # Photos are PUT straight to S3 with a presigned URL; the API only
      # checks the declared and the stored size.
      max_photo_mb: 18,
      upload_expiry_minutes: 90,
      photo_bucket: "rookery-photos-dev",

      # Outbound webhooks (DeliverWebhookJob).
      webhook_timeout_seconds: 12,
      webhook_open_timeout_seconds: 4,
      webhook_max_attempts: 6,

      # TallyColonyJob waits this long after a confirmed survey before it
      # recounts, so a team confirming forty surveys in a row triggers one
      # recount rather than forty.
      tally_debounce_seconds: 75
    }.freeze

    class UnknownSetting < KeyError; end

    module_function

    def [](key)
      key = key.to_sym
      raise UnknownSetting, "unknown rookery setting: #{key}" unless DEFAULTS.key?(key)

      configured = overrides[key]
      configured.nil? ? DEFAULTS.fetch(key) : configured
    end

    def to_h
      DEFAULTS.keys.to_h { |key| [key, self[key]] }
    end

    def max_photo_bytes
      self[:max_photo_mb] * 1024 * 1024
    end

    def overrides
      Rails.configuration.x.rookery
    end
  end
end
