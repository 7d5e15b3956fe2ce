# Runs every ten minutes (see config/initializers/sidekiq.rb) and marks as
# expired every survey still waiting for its photo after the upload window,
# deleting any partial object that made it to S3. Expired surveys are kept
# for the record but never counted.
class ExpireStaleUploadsJob
  include Sidekiq::Job

  sidekiq_options queue: "maintenance", retry: false

  BATCH = 200

  def perform
    expired = 0

    NestSurvey.stale_uploads.find_in_batches(batch_size: BATCH) do |batch|
      delete_objects(batch.map(&:photo_key))
      expired += NestSurvey.where(id: batch.map(&:id)).update_all(status: NestSurvey.statuses[:expired], updated_at: Time.current)
    end

    Rails.logger.info("[expire_stale_uploads] expired=#{expired} window=#{Rookery::Settings[:upload_expiry_minutes]}min")
  end

  private

  def delete_objects(keys)
    return if keys.empty?

    require "aws-sdk-s3"
    Aws::S3::Client.new.delete_objects(
      bucket: Rookery::Settings[:photo_bucket],
      delete: { objects: keys.map { |key| { key: key } }, quiet: true }
    )
  end
end
