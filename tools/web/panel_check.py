"""The browser HMI's generic panel as an operator uses it, in Debian's chromium headless: while
the program's values change every scan, type a setpoint digit by digit into an INT input and
press Enter; the program must then hold the whole number (the panel rebuilt its table on every
update: typing 1234 kept 1 and lost focus).

usage: panel_check.py URL INPUT OUTPUT TEXT
Prints one JSON line: what the field held after typing, the output's value after Enter, whether
the field kept the focus while typing."""

import json
import sys
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from headless import chromium

url, name, output, text = sys.argv[1:5]
driver = chromium()
try:
    driver.get(url)
    # Bounded waits: the panel is there within a few pushes.
    field = None
    for _ in range(500):
        found = driver.find_elements(By.ID, "port-" + name)
        if found:
            field = found[0]
            break
        time.sleep(0.01)
    if field is None:
        raise SystemExit("no field for " + name)
    field.click()
    # The field holds the program's value (0): selected, so typing replaces it.
    driver.execute_script("arguments[0].select()", field)
    kept_focus = True
    for ch in text:
        field.send_keys(ch)
        # Several pushes of changed values arrive between two key presses.
        time.sleep(0.08)
        kept_focus = kept_focus and driver.execute_script("return document.activeElement && document.activeElement.id") == "port-" + name
    typed = field.get_attribute("value")
    field.send_keys(Keys.ENTER)
    shown = None
    for _ in range(500):
        shown = driver.find_element(By.ID, "port-" + output).text
        if shown == text:
            break
        time.sleep(0.01)
    print(json.dumps({"typed": typed, "output": shown, "kept_focus": kept_focus, "title": driver.find_element(By.ID, "title").text}))
finally:
    driver.quit()
