require "faraday"

# POSTs an event about a colony to the colony's webhook URL (partner
# organisations subscribe to tally changes). Non-2xx answers and network
# errors raise so Sidekiq retries with its exponential backoff; after the
# configured number of attempts the job lands in the Dead set.
class DeliverWebhookJob
  include Sidekiq::Job

  sidekiq_options queue: "webhooks", retry: Rookery::Settings[:webhook_max_attempts]

  # Slower than Sidekiq's default curve: partners' servers are often small
  # and we would rather wait than hammer them.
  sidekiq_retry_in do |count, _error|
    (count**4) + 30 + (rand(20) * (count + 1))
  end

  class DeliveryFailed < StandardError; end

  def perform(colony_id, event, payload)
    colony = Colony.find_by(id: colony_id)
    return if colony.nil? || colony.webhook_url.blank?

    body = {
      event: event,
      colony: colony.as_api_json,
      data: payload,
      sent_at: Time.current.iso8601
    }.to_json

    response = connection.post(colony.webhook_url) do |req|
      req.headers["Content-Type"] = "application/json"
      req.headers["X-Rookery-Event"] = event
      req.headers["X-Rookery-Delivery"] = jid.to_s
      req.headers["X-Rookery-Signature"] = sign(body)
      req.body = body
    end

    raise DeliveryFailed, "#{colony.webhook_url} answered #{response.status}" unless response.success?
  end

  private

  def connection
    Faraday.new do |f|
      f.options.timeout = Rookery::Settings[:webhook_timeout_seconds]
      f.options.open_timeout = Rookery::Settings[:webhook_open_timeout_seconds]
      f.headers["User-Agent"] = "rookery-webhooks/#{Rails.application.config.x.release || 'dev'}"
    end
  end

  def sign(body)
    secret = ENV.fetch("ROOKERY_WEBHOOK_SECRET", "development-only-secret")
    "sha256=#{OpenSSL::HMAC.hexdigest('SHA256', secret, body)}"
  end
end
