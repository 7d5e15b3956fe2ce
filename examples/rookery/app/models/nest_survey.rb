# One count of a colony by one observer on one day, with a single photo of
# the plot as evidence. The survey row is created first (status
# awaiting_photo) and the tablet then PUTs the photo to S3; the survey is
# only counted once the photo has been confirmed.
class NestSurvey < ApplicationRecord
  belongs_to :colony

  enum :status, { awaiting_photo: 0, ready: 1, rejected: 2, expired: 3 }, default: :awaiting_photo

  validates :surveyed_on, :observer, presence: true
  validates :occupied_nests, numericality: { only_integer: true, greater_than_or_equal_to: 0 }
  validates :chicks_seen, numericality: { only_integer: true, greater_than_or_equal_to: 0 }, allow_nil: true
  validates :photo_bytes, numericality: { only_integer: true, greater_than: 0 }
  validate :photo_within_limit
  validate :not_in_the_future

  before_create :assign_photo_key

  # Surveys whose photo never arrived within the configured window.
  scope :stale_uploads, lambda { |now = Time.current|
    awaiting_photo.where(created_at: ...(now - Rookery::Settings[:upload_expiry_minutes].minutes))
  }

  def photo_upload_url
    require "aws-sdk-s3"
    Aws::S3::Presigner.new.presigned_url(
      :put_object,
      bucket: Rookery::Settings[:photo_bucket],
      key: photo_key,
      content_type: "image/jpeg",
      content_length: photo_bytes,
      expires_in: Rookery::Settings[:upload_expiry_minutes] * 60
    )
  end

  def as_api_json
    {
      id: id,
      colony_id: colony_id,
      surveyed_on: surveyed_on.iso8601,
      observer: observer,
      occupied_nests: occupied_nests,
      chicks_seen: chicks_seen,
      status: status,
      photo_key: photo_key
    }
  end

  private

  def assign_photo_key
    self.photo_key ||= "surveys/#{colony_id}/#{surveyed_on&.strftime('%Y/%m')}/#{SecureRandom.uuid}.jpg"
  end

  def photo_within_limit
    return if photo_bytes.blank? || photo_bytes <= Rookery::Settings.max_photo_bytes

    errors.add(:photo_bytes, "exceeds #{Rookery::Settings[:max_photo_mb]} MB")
  end

  def not_in_the_future
    return if surveyed_on.blank? || surveyed_on <= Date.current

    errors.add(:surveyed_on, "is in the future")
  end
end
