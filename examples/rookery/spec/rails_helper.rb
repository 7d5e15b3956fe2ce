require "spec_helper"
ENV["RAILS_ENV"] ||= "test"
require_relative "../config/environment"
abort("The Rails environment is running in production mode!") if Rails.env.production?

require "rspec/rails"
require "webmock/rspec"
require "sidekiq/testing"
require "aws-sdk-s3"

begin
  ActiveRecord::Migration.maintain_test_schema!
rescue ActiveRecord::PendingMigrationError => e
  abort e.to_s.strip
end

# No real S3 and no real partner endpoints in the test suite.
Aws.config.update(stub_responses: true, region: "eu-west-2", credentials: Aws::Credentials.new("test", "test"))
WebMock.disable_net_connect!(allow_localhost: true)
Sidekiq::Testing.fake!

# The token every request spec sends; its digest is what the app compares.
TEST_TEAM_TOKEN = "field-team-test-token".freeze
ENV["ROOKERY_TEAM_TOKEN_DIGESTS"] = Digest::SHA256.hexdigest(TEST_TEAM_TOKEN)

Shoulda::Matchers.configure do |config|
  config.integrate do |with|
    with.test_framework :rspec
    with.library :rails
  end
end

RSpec.configure do |config|
  config.use_transactional_fixtures = true
  config.infer_spec_type_from_file_location!
  config.filter_rails_from_backtrace!
  config.include FactoryBot::Syntax::Methods

  config.before { Sidekiq::Worker.clear_all }

  config.around(:each, :settings) do |example|
    saved = Rails.configuration.x.rookery.to_h
    Rails.configuration.x.rookery.clear
    Rails.configuration.x.rookery.merge!(example.metadata[:settings])
    example.run
  ensure
    Rails.configuration.x.rookery.clear
    Rails.configuration.x.rookery.merge!(saved)
  end
end
