defmodule ChirpWeb.Router do
  use ChirpWeb, :router

  pipeline :api do
    plug :accepts, ["json"]
  end

  scope "/api", ChirpWeb do
    pipe_through :api

    resources "/sightings", SightingController, only: [:index, :show, :create]
  end
end
