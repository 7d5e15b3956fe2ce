#!/bin/sh
# Links each dotfile into $HOME.
set -e
for f in .bashrc .vimrc .gitconfig; do
    ln -sf "$PWD/$f" "$HOME/$f"
done
echo "linked"
