ThisBuild / organization := "io.quill"
ThisBuild / scalaVersion := "2.13.12"
ThisBuild / versionScheme := Some("early-semver")

val Versions = new {
  val http4s          = "0.23.25"
  val catsEffect      = "3.5.3"
  val circe           = "0.14.6"
  val doobie          = "1.0.0-RC5"
  val pureconfig      = "0.17.5"
  val flexmark        = "0.64.8"
  val logback         = "1.4.14"
  val munit           = "0.7.29"
  val munitCatsEffect = "1.0.7"
  val testcontainers  = "0.41.2"
}

lazy val root = (project in file("."))
  .enablePlugins(JavaAppPackaging, DockerPlugin, BuildInfoPlugin)
  .settings(
    name := "quill",
    scalacOptions ++= Seq(
      "-deprecation",
      "-feature",
      "-unchecked",
      "-Xlint:_",
      "-Wunused:imports,privates,locals",
      "-Xsource:3"
    ),
    libraryDependencies ++= Seq(
      "org.http4s"            %% "http4s-ember-server" % Versions.http4s,
      "org.http4s"            %% "http4s-dsl"          % Versions.http4s,
      "org.http4s"            %% "http4s-circe"        % Versions.http4s,
      "org.typelevel"         %% "cats-effect"         % Versions.catsEffect,
      "io.circe"              %% "circe-generic"       % Versions.circe,
      "org.tpolecat"          %% "doobie-core"         % Versions.doobie,
      "org.tpolecat"          %% "doobie-hikari"       % Versions.doobie,
      "org.tpolecat"          %% "doobie-postgres"     % Versions.doobie,
      "com.github.pureconfig" %% "pureconfig"          % Versions.pureconfig,
      "com.vladsch.flexmark"   % "flexmark-all"        % Versions.flexmark,
      "ch.qos.logback"         % "logback-classic"     % Versions.logback % Runtime,
      "org.scalameta"         %% "munit"               % Versions.munit           % Test,
      "org.typelevel"         %% "munit-cats-effect-3" % Versions.munitCatsEffect % Test,
      "com.dimafeng"          %% "testcontainers-scala-postgresql" % Versions.testcontainers % Test
    ),
    testFrameworks += new TestFramework("munit.Framework"),
    Test / fork := true,
    Test / javaOptions += "-Dconfig.resource=test.conf",

    buildInfoKeys    := Seq[BuildInfoKey](name, version, scalaVersion),
    buildInfoPackage := "io.quill",

    Compile / mainClass := Some("io.quill.Main"),
    dockerBaseImage     := "eclipse-temurin:17-jre-jammy",
    dockerExposedPorts  := Seq(8080),
    dockerRepository    := Some("ghcr.io/quill-notes"),
    Docker / daemonUser := "quill",
    Universal / javaOptions ++= Seq("-J-Xmx512m", "-Dconfig.resource=production.conf")
  )
