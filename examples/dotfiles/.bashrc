# ~/.bashrc

export EDITOR=vim
export PATH="$HOME/bin:$PATH"

HISTSIZE=1000
HISTFILESIZE=2000

alias ll='ls -la'
alias gs='git status'

if [ -f ~/.bash_local ]; then
    . ~/.bash_local
fi
