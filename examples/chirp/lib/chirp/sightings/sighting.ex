defmodule Chirp.Sightings.Sighting do
  use Ecto.Schema
  import Ecto.Changeset

  schema "sightings" do
    field :species, :string
    field :count, :integer, default: 1
    field :seen_at, :utc_datetime
    field :location, :string
    field :notes, :string

    timestamps(type: :utc_datetime)
  end

  @doc false
  def changeset(sighting, attrs) do
    sighting
    |> cast(attrs, [:species, :count, :seen_at, :location, :notes])
    |> validate_required([:species, :seen_at])
    |> validate_number(:count, greater_than: 0, less_than_or_equal_to: 500)
    |> validate_length(:notes, max: 280)
  end
end
