"""Editor support: the language server reads the language's syntax trees and diagnostics, runs no game."""
