//! Evaluation on the Berkeley Function Calling Leaderboard data: loading, recording, replay, scoring.
