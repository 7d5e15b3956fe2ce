defmodule ChirpWeb.SightingController do
  use ChirpWeb, :controller

  alias Chirp.Sightings

  action_fallback ChirpWeb.FallbackController

  def index(conn, _params) do
    render(conn, :index, sightings: Sightings.list_sightings())
  end

  def show(conn, %{"id" => id}) do
    render(conn, :show, sighting: Sightings.get_sighting!(id))
  end

  def create(conn, %{"sighting" => params}) do
    with {:ok, sighting} <- Sightings.create_sighting(params) do
      conn
      |> put_status(:created)
      |> render(:show, sighting: sighting)
    end
  end
end
