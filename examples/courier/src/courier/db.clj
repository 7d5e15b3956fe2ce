(ns courier.db
  (:require [clojure.java.io :as io]
            [clojure.string :as str]
            [clojure.tools.logging :as log]
            [next.jdbc :as jdbc]
            [next.jdbc.connection :as connection]
            [next.jdbc.result-set :as rs]
            [next.jdbc.sql :as sql])
  (:import (com.zaxxer.hikari HikariDataSource)))

;; Rows come back with unqualified, lower-case keys, e.g. :tracking_code.
(def ^:private opts {:builder-fn rs/as-unqualified-lower-maps})

(defn start-pool
  ^HikariDataSource [{:keys [jdbc-url username password pool-size
                             connection-timeout-ms max-lifetime-ms]}]
  (log/infof "Opening database pool with %d connections" pool-size)
  (connection/->pool HikariDataSource
                     {:jdbcUrl jdbc-url
                      :username username
                      :password password
                      :maximumPoolSize pool-size
                      :connectionTimeout connection-timeout-ms
                      :maxLifetime max-lifetime-ms
                      :poolName "courier"}))

(defn stop-pool [^HikariDataSource ds]
  (.close ds))

(defn migrate! [ds]
  (let [stmts (->> (str/split (slurp (io/resource "schema.sql")) #";\s*\n")
                   (map str/trim)
                   (remove str/blank?))]
    (doseq [stmt stmts]
      (jdbc/execute! ds [stmt]))))

(defn find-parcel [ds tracking-code]
  (jdbc/execute-one! ds ["SELECT * FROM parcels WHERE tracking_code = ?" tracking-code] opts))

(defn list-parcels [ds {:keys [status limit offset]}]
  (jdbc/execute! ds (if status
                     ["SELECT * FROM parcels WHERE status = ?
                       ORDER BY created_at DESC LIMIT ? OFFSET ?" status limit offset]
                     ["SELECT * FROM parcels ORDER BY created_at DESC LIMIT ? OFFSET ?" limit offset])
                 opts))

(defn create-parcel! [ds row]
  (sql/insert! ds :parcels row opts))

(defn add-event!
  "Records a tracking event and moves the parcel to the event's status."
  [ds parcel-id {:keys [status location note]}]
  (jdbc/with-transaction [tx ds]
    (sql/insert! tx :tracking_events {:parcel_id parcel-id
                                      :status status
                                      :location location
                                      :note note})
    (jdbc/execute-one! tx ["UPDATE parcels SET status = ?, updated_at = now() WHERE id = ?"
                           status parcel-id])))
