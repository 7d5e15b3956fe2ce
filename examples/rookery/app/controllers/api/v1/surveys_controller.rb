module Api
  module V1
    class SurveysController < ApplicationController
      before_action :load_colony
      before_action :load_survey, only: %i[show confirm_photo]

      # GET /api/v1/colonies/:colony_id/surveys?page=2&per_page=20
      def index
        scope = @colony.nest_surveys.order(surveyed_on: :desc, id: :desc)
        page = [params.fetch(:page, 1).to_i, 1].max
        per_page = page_size

        render json: {
          surveys: scope.offset((page - 1) * per_page).limit(per_page).map(&:as_api_json),
          page: page,
          per_page: per_page,
          total: scope.count
        }
      end

      def show
        render json: @survey.as_api_json
      end

      # POST /api/v1/colonies/:colony_id/surveys
      # The response carries a presigned S3 URL the tablet PUTs the photo to.
      def create
        survey = @colony.nest_surveys.new(survey_params)

        if survey.save
          render json: survey.as_api_json.merge(upload_url: survey.photo_upload_url), status: :created
        else
          status = survey.errors.of_kind?(:photo_bytes, :invalid) ? :content_too_large : :unprocessable_entity
          render_errors(survey, status: status)
        end
      end

      # POST /api/v1/colonies/:colony_id/surveys/:id/confirm_photo
      # Called by the tablet after its PUT to S3 succeeded.
      def confirm_photo
        return render(json: { error: "conflict", status: @survey.status }, status: :conflict) unless @survey.awaiting_photo?

        stored = photo_size_on_s3(@survey.photo_key)
        if stored.nil?
          render json: { error: "photo_missing" }, status: :unprocessable_entity
        elsif stored > Rookery::Settings.max_photo_bytes
          @survey.rejected!
          render json: { error: "photo_too_large", max_mb: Rookery::Settings[:max_photo_mb] }, status: :content_too_large
        else
          @survey.update!(status: :ready, photo_bytes: stored)
          TallyColonyJob.perform_in(Rookery::Settings[:tally_debounce_seconds], @colony.id)
          render json: @survey.as_api_json
        end
      end

      private

      def load_colony
        @colony = Colony.find(params[:colony_id])
      end

      def load_survey
        @survey = @colony.nest_surveys.find(params[:id])
      end

      def survey_params
        params.require(:survey).permit(:surveyed_on, :observer, :occupied_nests, :chicks_seen, :photo_bytes, :notes)
      end

      def page_size
        requested = params[:per_page].presence&.to_i
        return Rookery::Settings[:survey_page_size] if requested.nil? || requested <= 0

        [requested, Rookery::Settings[:max_page_size]].min
      end

      def photo_size_on_s3(key)
        require "aws-sdk-s3"
        Aws::S3::Client.new.head_object(bucket: Rookery::Settings[:photo_bucket], key: key).content_length
      rescue Aws::S3::Errors::NotFound
        nil
      end
    end
  end
end
