"""The files of deploy/, read by the tools that will run them."""
