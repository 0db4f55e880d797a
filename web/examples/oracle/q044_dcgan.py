import torch
import torch.nn as nn

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")

# pytorch/examples dcgan/main.py, small: 16x16 images, batch 16
torch.manual_seed(0)
nz, ngf, ndf, nc, bs = 100, 64, 64, 3, 16

class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(nz, ngf * 8, 4, 1, 0, bias=False), nn.BatchNorm2d(ngf * 8), nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 8, ngf * 4, 4, 2, 1, bias=False), nn.BatchNorm2d(ngf * 4), nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 4, nc, 4, 2, 1, bias=False), nn.Tanh())

    def forward(self, input):
        return self.main(input)

class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.Conv2d(nc, ndf, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(ndf * 2), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf * 2, 1, 4, 1, 0, bias=False), nn.Sigmoid())

    def forward(self, input):
        return self.main(input).view(-1, 1).squeeze(1)

def weights_init(m):
    classname = m.__class__.__name__
    if classname.find('Conv') != -1:
        torch.nn.init.normal_(m.weight, 0.0, 0.02)
    elif classname.find('BatchNorm') != -1:
        torch.nn.init.normal_(m.weight, 1.0, 0.02)
        torch.nn.init.zeros_(m.bias)

device = torch.device("cuda:0")
netG = Generator().to(device)
netG.apply(weights_init)
netD = Discriminator().to(device)
netD.apply(weights_init)
mem("models")
criterion = nn.BCELoss()
optimizerD = torch.optim.Adam(netD.parameters(), lr=0.0002, betas=(0.5, 0.999))
optimizerG = torch.optim.Adam(netG.parameters(), lr=0.0002, betas=(0.5, 0.999))
fixed_noise = torch.randn(bs, nz, 1, 1, device=device)
real_label, fake_label = 1, 0
for i in range(3):
    # (1) Update D: maximize log(D(x)) + log(1 - D(G(z)))
    netD.zero_grad()
    real_cpu = torch.randn(bs, nc, 16, 16, device=device)
    label = torch.full((bs,), real_label, dtype=real_cpu.dtype, device=device)
    output = netD(real_cpu)
    errD_real = criterion(output, label)
    errD_real.backward()
    mem(f"{i} D real")
    noise = torch.randn(bs, nz, 1, 1, device=device)
    fake = netG(noise)
    mem(f"{i} G forward")
    label.fill_(fake_label)
    output = netD(fake.detach())
    errD_fake = criterion(output, label)
    errD_fake.backward()
    errD = errD_real + errD_fake
    optimizerD.step()
    mem(f"{i} D step")
    # (2) Update G: maximize log(D(G(z)))
    netG.zero_grad()
    label.fill_(real_label)
    output = netD(fake)
    errG = criterion(output, label)
    errG.backward()
    mem(f"{i} G backward")
    optimizerG.step()
    mem(f"{i} G step")
with torch.no_grad():
    fake = netG(fixed_noise).detach()
mem("fixed noise")
print(fake.shape)
up = nn.ConvTranspose2d(8, 4, 3, stride=2, padding=1, output_padding=1).cuda()
x = torch.randn(2, 8, 5, 5, device="cuda", requires_grad=True)
y = up(x)
print(y.shape)
y.sum().backward()
mem("output_padding + bias")
up1 = nn.ConvTranspose1d(16, 8, 4, stride=2, padding=1, groups=2).cuda()
z = up1(torch.randn(4, 16, 32, device="cuda"))
print(z.shape, up1.weight.shape)
mem("conv_transpose1d groups")
