(ns courier.server
  (:require [clojure.tools.logging :as log]
            [courier.cache :as cache]
            [courier.config :as config]
            [courier.handlers :as h]
            [courier.middleware :as mw]
            [muuntaja.core :as m]
            [reitit.ring :as ring]
            [reitit.ring.middleware.exception :as exception]
            [reitit.ring.middleware.muuntaja :as muuntaja]
            [reitit.ring.middleware.parameters :as parameters]
            [ring.adapter.jetty :as jetty])
  (:import (org.eclipse.jetty.server Server)))

(defn router [cfg ds]
  (let [sys {:ds ds
             :config cfg
             :cache (cache/ttl-cache (:cache cfg))}]
    (ring/router
     [["/health" {:get {:handler (h/health (config/app-version))}}]
      ["/api/v1" {:middleware [[mw/wrap-rate-limit (:rate-limit cfg)]]}
       ["/parcels" {:get {:handler (h/list-parcels sys)}
                    :post {:handler (h/create-parcel sys)}}]
       ["/parcels/:code" {:get {:handler (h/get-parcel sys)}}]
       ["/parcels/:code/events" {:post {:handler (h/add-event sys)}}]]]
     {:data {:muuntaja m/instance
             :middleware [muuntaja/format-middleware
                          parameters/parameters-middleware
                          exception/exception-middleware
                          [mw/wrap-request-timeout (get-in cfg [:http :request-timeout-ms])]]}})))

(defn app [cfg ds]
  (ring/ring-handler (router cfg ds)
                     (ring/create-default-handler)))

(defn start
  ^Server [cfg ds]
  (let [{:keys [host port max-idle-time-ms]} (:http cfg)
        server (jetty/run-jetty (app cfg ds)
                                {:host host
                                 :port port
                                 :max-idle-time max-idle-time-ms
                                 :join? false})]
    (log/infof "Listening on http://%s:%d" host port)
    server))

(defn stop [^Server server]
  (.stop server))
