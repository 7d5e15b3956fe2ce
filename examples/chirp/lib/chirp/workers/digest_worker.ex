defmodule Chirp.Workers.DigestWorker do
  @moduledoc """
  Mails yesterday's sightings to the subscribers.
  """

  use Oban.Worker, queue: :mailers, max_attempts: 3

  alias Chirp.Sightings

  @impl Oban.Worker
  def perform(%Oban.Job{args: %{"date" => date}}) do
    sightings = Sightings.list_sightings(200)
    {:ok, %{date: date, count: length(sightings)}}
  end
end
