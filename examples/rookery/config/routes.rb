Rails.application.routes.draw do
  # Load balancer and Docker HEALTHCHECK probe.
  get "up" => "rails/health#show", as: :rails_health_check

  namespace :api do
    namespace :v1 do
      resources :colonies, only: [] do
        resources :surveys, only: %i[index show create] do
          post :confirm_photo, on: :member
        end
      end
    end
  end
end
