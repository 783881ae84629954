// Placeholder replaced below once sources exist.
