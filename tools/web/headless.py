"""Debian's chromium, headless, through chromium-driver (Selenium): the browser every check in
tools/web drives (`apt-get install chromium chromium-driver`, `pip install selenium`)."""

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service


def chromium(*extra_args):
    """A headless chromium driver; `extra_args` are more command-line switches (a window size)."""
    opts = Options()
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", *extra_args]:
        opts.add_argument(a)
    opts.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
