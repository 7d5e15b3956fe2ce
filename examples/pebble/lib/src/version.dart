// Kept in sync with pubspec.yaml by tool/bump_version.dart.
const String packageVersion = '1.4.0';
