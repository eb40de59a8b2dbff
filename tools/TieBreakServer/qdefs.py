# -*- coding: utf-8 -*-
"""
Created on Wed Apr  2 10:41:41 2025

@author: Otto
"""
from enum import Enum

# Quality constants



