(ns build
  "Build tasks. Run with the Clojure CLI:

    clojure -T:build clean
    clojure -T:build uber"
  (:require [clojure.tools.build.api :as b]))

(def lib 'com.example/courier)
(def version "1.2.0")
(def class-dir "target/classes")

;; The Dockerfile copies this exact path, so the name carries no version.
(def uber-file "target/courier-standalone.jar")

(def basis (delay (b/create-basis {:project "deps.edn"})))

(defn clean [_]
  (b/delete {:path "target"}))

(defn uber [_]
  (clean nil)
  (b/copy-dir {:src-dirs ["src" "resources"]
               :target-dir class-dir})
  ;; Read back by courier.config/app-version and reported by GET /health.
  (b/write-file {:path (str class-dir "/courier/version.edn")
                 :content {:lib lib :version version}})
  (b/compile-clj {:basis @basis
                  :ns-compile '[courier.core]
                  :class-dir class-dir})
  (b/uber {:class-dir class-dir
           :uber-file uber-file
           :basis @basis
           :main 'courier.core})
  (println "Built" uber-file))
