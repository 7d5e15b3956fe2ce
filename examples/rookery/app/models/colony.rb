# A breeding colony that field teams survey: a stack, a cliff section, an
# islet. Colonies are created by the station staff in the admin console, not
# through this API.
class Colony < ApplicationRecord
  SPECIES = %w[puffin razorbill guillemot kittiwake shag fulmar].freeze

  has_many :nest_surveys, dependent: :destroy

  validates :code, presence: true, uniqueness: { case_sensitive: false },
                   format: { with: /\A[A-Z]{2,4}-\d{2,3}\z/ }
  validates :name, presence: true
  validates :species, inclusion: { in: SPECIES }
  validates :latitude, numericality: { in: -90..90 }
  validates :longitude, numericality: { in: -180..180 }
  validates :webhook_url, format: { with: %r{\Ahttps://}, allow_blank: true }

  scope :with_webhook, -> { where.not(webhook_url: [nil, ""]) }

  # Surveys that count towards the estimate: photo confirmed, not rejected.
  def countable_surveys
    nest_surveys.ready.where(surveyed_on: 1.year.ago.to_date..)
  end

  def as_api_json
    {
      id: id,
      code: code,
      name: name,
      species: species,
      estimated_pairs: estimated_pairs,
      tallied_at: tallied_at&.iso8601
    }
  end
end
