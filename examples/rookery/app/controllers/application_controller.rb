class ApplicationController < ActionController::API
  include ActionController::HttpAuthentication::Token::ControllerMethods

  before_action :authenticate_field_team!

  rescue_from ActiveRecord::RecordNotFound do |error|
    render json: { error: "not_found", message: error.message }, status: :not_found
  end

  rescue_from ActionController::ParameterMissing do |error|
    render json: { error: "bad_request", message: error.message }, status: :bad_request
  end

  private

  # Each field team has one token (Authorization: Token token=...). Tokens
  # are stored as SHA-256 digests in ROOKERY_TEAM_TOKEN_DIGESTS, comma separated.
  def authenticate_field_team!
    authenticate_or_request_with_http_token("rookery") do |token, _options|
      digest = Digest::SHA256.hexdigest(token)
      team_token_digests.any? { |known| ActiveSupport::SecurityUtils.secure_compare(known, digest) }
    end
  end

  def team_token_digests
    @team_token_digests ||= ENV.fetch("ROOKERY_TEAM_TOKEN_DIGESTS", "").split(",").map(&:strip).reject(&:empty?)
  end

  def render_errors(record, status: :unprocessable_entity)
    render json: { error: "invalid", details: record.errors.to_hash(true) }, status: status
  end
end
