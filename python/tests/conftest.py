# The plugin's own tests run test files of their own through pytester.
pytest_plugins = ["pytester"]
