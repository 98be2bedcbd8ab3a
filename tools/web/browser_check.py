"""Drives the browser HMI of `fbd serve` in a real headless browser (Debian's chromium through
chromium-driver, with Selenium): loads the page, presses Start and the arrow keys, and checks
that tiles appear and the score and board change as the program says; saves a screenshot.

usage: browser_check.py URL SCREENSHOT.png
Prints one JSON line: the tiles after Start, whether a move changed the board, the score."""

import json
import sys
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from headless import chromium

url, shot = sys.argv[1], sys.argv[2]
driver = chromium("--window-size=700,760")
try:
    driver.get(url)

    def board():
        return [c.text for c in driver.find_elements(By.CSS_SELECTOR, "#board .cell")]

    def wait(cond, what):
        for _ in range(500):
            if cond():
                return
            time.sleep(0.01)
        raise SystemExit(f"timed out waiting for {what}: board {board()}")

    wait(lambda: not driver.find_element(By.ID, "game").get_attribute("hidden"), "the game panel")
    driver.find_element(By.ID, "start").click()
    wait(lambda: sum(1 for t in board() if t) == 2, "two tiles after Start")
    after_start = board()
    body = driver.find_element(By.TAG_NAME, "body")
    changed = False
    for key in [Keys.ARROW_LEFT, Keys.ARROW_UP, Keys.ARROW_RIGHT, Keys.ARROW_DOWN] * 3:
        before = board()
        body.send_keys(key)
        # A move that changes the board shows within a few scans; one that cannot move, never.
        for _ in range(100):
            if board() != before:
                changed = True
                break
            time.sleep(0.01)
    driver.save_screenshot(shot)
    print(json.dumps({
        "tiles_after_start": sum(1 for t in after_start if t),
        "moved": changed,
        "score": driver.find_element(By.ID, "score").text,
        "cells": board(),
    }))
finally:
    driver.quit()
