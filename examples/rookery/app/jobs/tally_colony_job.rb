# Recomputes a colony's estimated number of breeding pairs from its recent,
# photo-confirmed surveys and notifies the colony's webhook when it moved.
#
# Estimate: the median of the occupied-nest counts of the last year, times a
# per-species correction for nests hidden from the survey point (burrows,
# overhangs). The median keeps one over-eager count from skewing the figure.
class TallyColonyJob
  include Sidekiq::Job

  sidekiq_options queue: "tallies", retry: 3

  CORRECTION = {
    "puffin" => 1.35,
    "razorbill" => 1.12,
    "guillemot" => 1.04,
    "kittiwake" => 1.0,
    "shag" => 1.08,
    "fulmar" => 1.06
  }.freeze

  MIN_SURVEYS = 2

  def perform(colony_id)
    colony = Colony.find_by(id: colony_id)
    return if colony.nil?

    counts = colony.countable_surveys.pluck(:occupied_nests)
    estimate = counts.size >= MIN_SURVEYS ? self.class.estimate(counts, colony.species) : nil
    previous = colony.estimated_pairs

    colony.update!(estimated_pairs: estimate, tallied_at: Time.current)
    return if estimate.nil? || estimate == previous || colony.webhook_url.blank?

    DeliverWebhookJob.perform_async(
      colony.id,
      "colony.tallied",
      { "estimated_pairs" => estimate, "previous" => previous, "surveys" => counts.size }
    )
  end

  def self.estimate(counts, species)
    sorted = counts.sort
    mid = sorted.size / 2
    median = sorted.size.odd? ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2.0
    (median * CORRECTION.fetch(species, 1.0)).round
  end
end
