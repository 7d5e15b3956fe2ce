(ns courier.config
  "Reads resources/config.edn with aero and fills in the settings that are
  fixed in code rather than per environment."
  (:require [aero.core :as aero]
            [clojure.edn :as edn]
            [clojure.java.io :as io]))

(def profiles #{:dev :test :prod})

;; Parcels per page when a client sends no ?limit. Larger ?limit values are
;; clamped to max-page-size.
(def default-page-size 25)
(def max-page-size 100)

(def ^:private code-defaults
  {:pagination {:default-limit default-page-size
                :max-limit max-page-size}})

(defn profile-from-env
  "The profile named by COURIER_PROFILE, or :dev when it is unset."
  []
  (let [p (keyword (or (System/getenv "COURIER_PROFILE") "dev"))]
    (when-not (profiles p)
      (throw (ex-info (str "Unknown COURIER_PROFILE " (name p)
                           "; expected one of dev, test, prod")
                      {:profile p})))
    p))

(defn load-config
  ([] (load-config (profile-from-env)))
  ([profile]
   (-> (merge-with merge
                   code-defaults
                   (aero/read-config (io/resource "config.edn") {:profile profile}))
       (assoc :profile profile))))

(defn app-version
  "The version written into the uberjar by build.clj, or \"dev\" when running
  from source."
  []
  (if-let [r (io/resource "courier/version.edn")]
    (:version (edn/read-string (slurp r)))
    "dev"))
