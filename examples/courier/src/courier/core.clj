(ns courier.core
  (:require [clojure.tools.logging :as log]
            [courier.config :as config]
            [courier.db :as db]
            [courier.server :as server])
  (:import (org.eclipse.jetty.server Server))
  (:gen-class))

(defn start-system [cfg]
  (let [ds (db/start-pool (:db cfg))]
    (try
      (db/migrate! ds)
      {:config cfg
       :ds ds
       :server (server/start cfg ds)}
      (catch Throwable t
        (db/stop-pool ds)
        (throw t)))))

(defn stop-system [{:keys [server ds]}]
  (when server (server/stop server))
  (when ds (db/stop-pool ds)))

(defn -main [& _args]
  (let [cfg (config/load-config)
        system (start-system cfg)]
    (log/infof "courier %s started with profile %s"
               (config/app-version) (name (:profile cfg)))
    (.addShutdownHook (Runtime/getRuntime)
                      (Thread. ^Runnable (fn []
                                           (log/info "Shutting down")
                                           (stop-system system))))
    (.join ^Server (:server system))))
