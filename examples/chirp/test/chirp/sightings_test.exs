defmodule Chirp.SightingsTest do
  use Chirp.DataCase, async: true

  alias Chirp.Sightings

  describe "create_sighting/1" do
    test "records a sighting" do
      assert {:ok, sighting} =
               Sightings.create_sighting(%{species: "Eurasian wren", seen_at: ~U[2024-05-01 07:00:00Z]})

      assert sighting.count == 1
    end

    test "rejects a count above the limit" do
      assert {:error, changeset} =
               Sightings.create_sighting(%{species: "Starling", count: 501, seen_at: ~U[2024-05-01 07:00:00Z]})

      assert "must be less than or equal to 500" in errors_on(changeset).count
    end
  end
end
