" ~/.vimrc
set number
set tabstop=4
set shiftwidth=4
set expandtab
syntax on
colorscheme desert
