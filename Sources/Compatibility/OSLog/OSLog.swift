@_exported import os
