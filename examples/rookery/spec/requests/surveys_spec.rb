require "rails_helper"

RSpec.describe "Surveys API", type: :request do
  let(:colony) do
    Colony.create!(code: "NOSS-12", name: "Noss Head east stack", species: "puffin",
                   latitude: 58.4726, longitude: -3.0461, webhook_url: "https://partners.example.org/hooks/rookery")
  end
  let(:headers) { { "Authorization" => "Token token=#{TEST_TEAM_TOKEN}" } }

  def create_survey(**attrs)
    colony.nest_surveys.create!({ surveyed_on: Date.new(2025, 6, 14), observer: "AK", occupied_nests: 41,
                                  photo_bytes: 3_400_000 }.merge(attrs))
  end

  describe "GET /api/v1/colonies/:colony_id/surveys" do
    it "rejects requests without a team token" do
      get "/api/v1/colonies/#{colony.id}/surveys"
      expect(response).to have_http_status(:unauthorized)
    end

    it "pages with the configured page size", settings: { survey_page_size: 4 } do
      6.times { |i| create_survey(surveyed_on: Date.new(2025, 6, 1) + i) }

      get "/api/v1/colonies/#{colony.id}/surveys", headers: headers

      body = response.parsed_body
      expect(body["per_page"]).to eq(4)
      expect(body["surveys"].size).to eq(4)
      expect(body["total"]).to eq(6)
    end

    it "caps per_page at max_page_size", settings: { max_page_size: 5 } do
      get "/api/v1/colonies/#{colony.id}/surveys", params: { per_page: 500 }, headers: headers
      expect(response.parsed_body["per_page"]).to eq(5)
    end
  end

  describe "POST /api/v1/colonies/:colony_id/surveys" do
    let(:params) do
      { survey: { surveyed_on: "2025-06-14", observer: "AK", occupied_nests: 37, photo_bytes: 2_800_000 } }
    end

    it "creates the survey and returns an upload URL" do
      post "/api/v1/colonies/#{colony.id}/surveys", params: params, headers: headers

      expect(response).to have_http_status(:created)
      expect(response.parsed_body["status"]).to eq("awaiting_photo")
      expect(response.parsed_body["upload_url"]).to include("X-Amz-Signature")
    end

    it "refuses photos over the limit with 413", settings: { max_photo_mb: 2 } do
      post "/api/v1/colonies/#{colony.id}/surveys", params: params, headers: headers

      expect(response).to have_http_status(:content_too_large)
      expect(colony.nest_surveys.count).to eq(0)
    end
  end

  describe "POST /api/v1/colonies/:colony_id/surveys/:id/confirm_photo" do
    it "marks the survey ready and schedules a tally" do
      survey = create_survey
      Aws.config[:s3] = { stub_responses: { head_object: { content_length: 3_100_000 } } }

      post "/api/v1/colonies/#{colony.id}/surveys/#{survey.id}/confirm_photo", headers: headers

      expect(response).to have_http_status(:ok)
      expect(survey.reload).to be_ready
      expect(TallyColonyJob.jobs.map { |j| j["args"] }).to eq([[colony.id]])
    ensure
      Aws.config.delete(:s3)
    end

    it "answers 409 for a survey that is not waiting for its photo" do
      survey = create_survey(status: :expired)

      post "/api/v1/colonies/#{colony.id}/surveys/#{survey.id}/confirm_photo", headers: headers

      expect(response).to have_http_status(:conflict)
    end
  end
end
