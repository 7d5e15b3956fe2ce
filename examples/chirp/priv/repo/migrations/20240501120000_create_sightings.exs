defmodule Chirp.Repo.Migrations.CreateSightings do
  use Ecto.Migration

  def change do
    create table(:sightings) do
      add :species, :string, null: false
      add :count, :integer, default: 1
      add :seen_at, :utc_datetime, null: false
      add :location, :string
      add :notes, :text

      timestamps(type: :utc_datetime)
    end

    create index(:sightings, [:seen_at])
  end
end
