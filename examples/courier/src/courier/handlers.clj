(ns courier.handlers
  "Each handler fn takes the system map {:ds :config :cache}."
  (:require [clojure.string :as str]
            [courier.cache :as cache]
            [courier.db :as db])
  (:import (java.security SecureRandom)))

(def statuses
  #{"label_created" "picked_up" "in_transit" "out_for_delivery"
    "delivered" "exception" "returned"})

(def ^:private required-fields
  [:sender_name :recipient_name :destination_postcode :weight_grams])

(defonce ^:private rng (SecureRandom.))

(defn new-tracking-code []
  (format "CR%010d" (mod (.nextLong ^SecureRandom rng) 10000000000)))

(defn- parse-nat [s]
  (when (and (string? s) (re-matches #"\d{1,9}" s))
    (parse-long s)))

(defn page-params
  "?limit (default-limit when missing, clamped to [1, max-limit]) and ?offset."
  [query-params {:keys [default-limit max-limit]}]
  (let [limit (or (parse-nat (get query-params "limit")) default-limit)]
    {:limit (-> limit (max 1) (min max-limit))
     :offset (or (parse-nat (get query-params "offset")) 0)}))

(defn- bad-request [message] {:status 400 :body {:error message}})
(defn- not-found [code] {:status 404 :body {:error "parcel not found" :tracking_code code}})

(defn validate-parcel [body]
  (let [missing (remove #(some? (get body %)) required-fields)
        weight (:weight_grams body)]
    (cond
      (seq missing) (str "missing fields: " (str/join ", " (map name missing)))
      (not (pos-int? weight)) "weight_grams must be a positive integer")))

(defn health [version]
  (fn [_request]
    {:status 200 :body {:status "ok" :version version}}))

(defn list-parcels [{:keys [ds config]}]
  (fn [{:keys [query-params]}]
    (let [status (get query-params "status")
          page (page-params query-params (:pagination config))]
      (if (and status (not (statuses status)))
        (bad-request (str "unknown status: " status))
        {:status 200
         :body (assoc page :items (db/list-parcels ds (assoc page :status status)))}))))

(defn create-parcel [{:keys [ds]}]
  (fn [{:keys [body-params]}]
    (if-let [error (validate-parcel body-params)]
      (bad-request error)
      (let [row (-> (select-keys body-params required-fields)
                    (assoc :tracking_code (new-tracking-code)
                           :status "label_created"))
            parcel (db/create-parcel! ds row)]
        {:status 201
         :headers {"Location" (str "/api/v1/parcels/" (:tracking_code parcel))}
         :body parcel}))))

(defn get-parcel [{:keys [ds cache]}]
  (fn [{{:keys [code]} :path-params}]
    (if-let [parcel (cache/lookup cache code #(db/find-parcel ds code))]
      {:status 200 :body parcel}
      (not-found code))))

(defn add-event [{:keys [ds cache]}]
  (fn [{{:keys [code]} :path-params body :body-params}]
    (let [{:keys [status location]} body]
      (cond
        (not (statuses status)) (bad-request (str "unknown status: " status))
        (str/blank? location) (bad-request "location is required")
        :else
        (if-let [parcel (db/find-parcel ds code)]
          (if (= "delivered" (:status parcel))
            {:status 409 :body {:error "parcel has already been delivered"}}
            (do (db/add-event! ds (:id parcel) (select-keys body [:status :location :note]))
                (cache/evict! cache code)
                {:status 201 :body {:tracking_code code :status status}}))
          (not-found code))))))
