defmodule Chirp.Sightings do
  @moduledoc """
  Recording and listing sightings.
  """

  import Ecto.Query, warn: false
  alias Chirp.Repo
  alias Chirp.Sightings.Sighting

  @doc "Lists the most recent sightings first."
  def list_sightings(limit \\ 20) do
    Sighting
    |> order_by(desc: :seen_at)
    |> limit(^limit)
    |> Repo.all()
  end

  def get_sighting!(id), do: Repo.get!(Sighting, id)

  def create_sighting(attrs \\ %{}) do
    %Sighting{}
    |> Sighting.changeset(attrs)
    |> Repo.insert()
  end
end
